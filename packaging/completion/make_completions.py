#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# make_completions.py PLACESCOPE PLACESCOPE_GUI|- OUTDIR
# Writes OUTDIR/bash/placescope (bash, both programs) and OUTDIR/zsh/_placescope (zsh) from the programs' own
# --help: the subcommands `placescope --help` lists and the options each one prints (CLI11's layout), and the
# GUI's options (Qt's layout). Values and positionals complete as file names.
import os
import re
import subprocess
import sys


def help_text(argv):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run(argv + ["--help"], check=True, capture_output=True, text=True, env=env).stdout


def sections(text):
    """{heading: [lines]} for CLI11's 'Options:' / 'Subcommands:' and Qt's 'Options:' headings; a line indented
    deeper than an entry (a wrapped description) is kept, indented, after its entry."""
    result, current = {}, None
    for line in text.splitlines():
        if re.match(r"^[A-Za-z ]+:$", line):
            current = line[:-1].strip().lower()
            result.setdefault(current, [])
        elif current and line.startswith("  ") and line.strip():
            result[current].append(line[2:] if not line.startswith("      ") else "    " + line.strip())
    return result


def options(text):
    """[(names, takes_value, description)] from the option lines of a --help text."""
    found = []
    for line in sections(text).get("options", []):
        if line.startswith("    "):  # a description on its own line, or its continuation
            if found and not found[-1][2]:
                found[-1] = (found[-1][0], found[-1][1], line.strip())
            continue
        if not line.startswith("-"):
            continue
        parts = re.split(r"\s{2,}", line, maxsplit=1)
        left, desc = parts[0], parts[1] if len(parts) > 1 else ""
        left = re.split(r"\s(?:Excludes|Needs):", left)[0]  # CLI11's constraints, not names
        tokens = [t for t in re.split(r"[\s,]+", left) if t]
        names = [re.sub(r"\{.*\}$", "", t) for t in tokens if t.startswith("-")]  # --flag{false}: a flag's default
        takes_value = any(not t.startswith("-") and t != "REQUIRED" for t in tokens)
        found.append((names, takes_value, desc.strip()))
    return found


def subcommands(text):
    result = []
    for line in sections(text).get("subcommands", []):
        name, _, desc = line.partition(" ")
        result.append((name, desc.strip()))
    return result


def bash_script(cli_opts, commands, gui_opts):
    out = ["# bash completion for placescope and placescope-gui (generated from their --help)", ""]
    out.append("_placescope() {")
    out.append('    local cur=${COMP_WORDS[COMP_CWORD]} opts')
    out.append("    if [[ $COMP_CWORD -eq 1 ]]; then")
    words = " ".join([name for name, _ in commands] + [n for names, _, _ in cli_opts for n in names])
    out.append(f'        COMPREPLY=($(compgen -W "{words}" -- "$cur"))')
    out.append("        return")
    out.append("    fi")
    out.append('    case ${COMP_WORDS[1]} in')
    for name, opts in commands_opts(commands):
        out.append(f'        {name}) opts="{" ".join(n for names, _, _ in opts for n in names)}" ;;')
    out.append('        *) opts="" ;;')
    out.append("    esac")
    out.append('    if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); fi')
    out.append("}")
    out.append("complete -o default -F _placescope placescope")
    if gui_opts is not None:
        out += ["", "_placescope_gui() {", '    local cur=${COMP_WORDS[COMP_CWORD]}',
                f'    if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "{" ".join(n for names, _, _ in gui_opts for n in names)}" -- "$cur")); fi',
                "}", "complete -o default -F _placescope_gui placescope-gui"]
    return "\n".join(out) + "\n"


def zsh_quote(text):
    return text.replace("'", "'\\''").replace("[", "\\[").replace("]", "\\]").replace(":", "\\:")


def zsh_specs(opts):
    specs = []
    for names, takes_value, desc in opts:
        for name in names:
            spec = f"{name}[{zsh_quote(desc)}]"
            if takes_value:
                spec += ":value:_files"
            specs.append(f"'{spec}'")
    specs.append("'*:file:_files'")
    return specs


def zsh_script(cli_opts, commands, gui_opts):
    services = "placescope" + (" placescope-gui" if gui_opts is not None else "")
    out = [f"#compdef {services}", "# zsh completion for placescope and placescope-gui (generated from their --help)", ""]
    if gui_opts is not None:
        out.append("_placescope_gui() {")
        out.append("    _arguments -s " + " ".join(zsh_specs(gui_opts)))
        out.append("}")
        out.append("")
    out.append("_placescope_cli() {")
    out.append("    local -a commands")
    out.append("    commands=(" + " ".join(f"'{name}:{zsh_quote(desc)}'" for name, desc in commands) + ")")
    out.append("    if (( CURRENT == 2 )); then")
    out.append("        _describe -t commands 'placescope command' commands")
    out.append("        return")
    out.append("    fi")
    out.append("    local command=$words[2]")
    out.append("    shift words; (( CURRENT-- ))")
    out.append("    case $command in")
    for name, opts in commands_opts(commands):
        out.append(f"        {name}) _arguments -s " + " ".join(zsh_specs(opts)) + " ;;")
    out.append("        *) _files ;;")
    out.append("    esac")
    out.append("}")
    out.append("")
    out.append("case $service in")
    if gui_opts is not None:
        out.append("    placescope-gui) _placescope_gui \"$@\" ;;")
    out.append("    *) _placescope_cli \"$@\" ;;")
    out.append("esac")
    return "\n".join(out) + "\n"


CLI = None


def commands_opts(commands):
    return [(name, options(help_text([CLI, name]))) for name, _ in commands]


def main():
    global CLI
    if len(sys.argv) != 4:
        sys.exit("usage: make_completions.py PLACESCOPE PLACESCOPE_GUI|- OUTDIR")
    CLI, gui, out = sys.argv[1:]
    top = help_text([CLI])
    commands = subcommands(top)
    if not commands:
        sys.exit(f"make_completions.py: no subcommands in '{CLI} --help'")
    cli_opts = options(top)
    gui_opts = options(help_text([gui])) if gui != "-" else None
    for folder, name, text in (("bash", "placescope", bash_script(cli_opts, commands, gui_opts)),
                               ("zsh", "_placescope", zsh_script(cli_opts, commands, gui_opts))):
        os.makedirs(os.path.join(out, folder), exist_ok=True)
        with open(os.path.join(out, folder, name), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
