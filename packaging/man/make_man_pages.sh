#!/bin/sh
# SPDX-License-Identifier: MIT
# make_man_pages.sh HELP2MAN PLACESCOPE PLACESCOPE_GUI|- VERSION OUTDIR
# Man pages from --help, with help2man: placescope.1, placescope-<command>.1 for every subcommand that
# `placescope --help` lists, and placescope-gui.1 (PLACESCOPE_GUI '-' when the GUI is not built). Gzipped.
set -eu
help2man=$1 cli=$2 gui=$3 version=$4 out=$5
work=$out/.work
rm -rf "$out"
mkdir -p "$work"

# The subcommands: the indented lines under CLI11's "Subcommands:" heading (name, then the description).
"$cli" --help | awk '/^[A-Za-z]+:$/ { sub_ = (toupper($0) == "SUBCOMMANDS:"); next } sub_ && /^  [a-z]/ { print }' \
  > "$work/commands"
[ -s "$work/commands" ] || { echo "make_man_pages.sh: no subcommands in '$cli --help'" >&2; exit 1; }

page() { # page NAME PROGRAM DESCRIPTION INCLUDE
  "$help2man" --no-info --section=1 --version-string="$version" --source=Placescope \
    --name="$3" --include="$4" --output="$out/$1.1" "$2"
  gzip -9nf "$out/$1.1"
}

{
  echo "[SEE ALSO]"
  first=1
  while read -r name desc; do
    [ $first -eq 1 ] || printf ',\n'
    printf '.BR placescope-%s (1)' "$name"
    first=0
  done < "$work/commands"
  [ "$gui" = "-" ] || printf ',\n.BR placescope-gui (1)'
  echo
} > "$work/main.h2m"
page placescope "$cli" "find and fix wasted GPU time (traces, findings, CPU/GPU placement)" "$work/main.h2m"

printf '[SEE ALSO]\n.BR placescope (1)\n' > "$work/sub.h2m"
while read -r name desc; do
  # help2man names the page after the program it runs: a wrapper called placescope-<command>.
  printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$cli" "$name" > "$work/placescope-$name"
  chmod +x "$work/placescope-$name"
  page "placescope-$name" "$work/placescope-$name" "$desc" "$work/sub.h2m"
done < "$work/commands"

if [ "$gui" != "-" ]; then
  export QT_QPA_PLATFORM=offscreen # --help needs no display
  page placescope-gui "$gui" "GPU trace timeline, findings and placement (desktop app)" \
    "$work/sub.h2m"
fi
rm -rf "$work"
