#!/usr/bin/env bash
# An input in a folder the user may not enter says "Permission denied", not "no such file", and writes nothing.
# Run as root: the command runs as nobody (uid 65534) through setpriv on a trace in a folder only root may enter.
# Exit 77 (skipped) where nobody cannot run the binary at all (a build tree under a private home folder).
set -u
placescope=$1 trace=$2 work=$3
as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
"${as_nobody[@]}" "$placescope" --version >/dev/null 2>&1 || { echo "nobody cannot run $placescope: skipped"; exit 77; }
rm -rf "$work" && mkdir -p "$work/private" && cp "$trace" "$work/private/run.json.gz"
chmod 700 "$work/private" && chmod 777 "$work"
err=$("${as_nobody[@]}" "$placescope" import "$work/private/run.json.gz" -o "$work/out.sqlite" 2>&1 >/dev/null)
rc=$?
rm -rf "$work"
if [ $rc -eq 0 ] || ! grep -q "^placescope import: cannot read .*Permission denied$" <<<"$err"; then
    echo "expected one permission error line, got exit $rc: $err"; exit 1
fi
