#!/usr/bin/env python3
"""The documents agree with the command and with each other.

In README.md, CONTRIBUTING.md and doc/*.md (code blocks and inline code):
- every `mbdae COMMAND` names a command of `mbdae --help`, and every `--option` after it is one of
  that command's options as `mbdae help COMMAND` lists them (a bare `COMMAND --option` too);
- an `--option` without a command is one of the command its section is about (a heading whose
  first word is a command), else of some command, of scripts/workprecision.py, or of a tool the
  fragment runs (cmake, ctest, ...);
- every -DMBDAE_X is an option of CMakeLists.txt;
- every relative link leads to a file, and its #anchor to a heading of that file;
- .ci/run runs the README's test command (its second sh block) as written;
- the README's C skeleton of a plug-in solver builds with CC as a shared object and loads: `mbdae
  list --plugin` lists its solver.
Then it plants a bogus option, an option of another command, a bogus command, a broken link and
anchor, an unknown CMake option and a changed test command into copies of the README and fails
unless each is caught.
Usage: test_docs.py ROOT MBDAE CC"""
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(sys.argv[1]).resolve()
MBDAE = sys.argv[2]
CC = sys.argv[3]

# Tools whose own options a fragment may show; a fragment that starts with one is theirs.
FOREIGN_TOOLS = {"cmake", "ctest", "cc", "gcc", "clang", "pkg-config", "python3", "gnuplot",
                 "sbatch", "parallel", "awk", "apt-get", "export", "env", "git", "sh", "make",
                 "nm", "valgrind", "pytest", "$(pkg-config", "mkoctfile", "mex", "octave",
                 "gfortran"}
WORKPRECISION = "scripts/workprecision.py"
SEPARATORS = {"&&", "||", "|", ";", ">", "2>", "<"}
# Options of other programs named in prose, and the generic --opt of "--opt VALUE".
FOREIGN_OPTIONS = {"--sshlogin"}  # GNU parallel's (examples/parallel/sweep.sh)
PLACEHOLDERS = {"--opt", "--option"}


def help_text(*args):
    return subprocess.run([MBDAE, *args], capture_output=True, text=True, check=True).stdout


def command_options():
    """{command: set of options} from `mbdae --help` and `mbdae help COMMAND`."""
    listing = help_text("--help").split("\nmbdae help COMMAND", 1)[0]  # before the solvers
    commands = re.findall(r"^  ([a-z]+)(?: |$)", listing, re.M)
    options = {}
    for c in commands:
        text = help_text("help", c)
        listed = text.split("\noptions:\n", 1)[1] if "\noptions:\n" in text else ""
        options[c] = set(re.findall(r"^  (--[a-z0-9-]+)", listed, re.M)) | {"--help", "-h"}
    return options


def workprecision_options():
    text = subprocess.run([sys.executable, str(ROOT / WORKPRECISION), "--help"],
                          capture_output=True, text=True, check=True).stdout
    return set(re.findall(r"(--[a-z0-9-]+)", text))


def cmake_options():
    names = set()
    for path in [ROOT / "CMakeLists.txt", *ROOT.glob("*/CMakeLists.txt"),
                 *ROOT.glob("src/*/CMakeLists.txt"), *ROOT.glob("cmake/*.cmake")]:
        text = path.read_text()
        names |= set(re.findall(r"\boption\((MBDAE_\w+)", text))
        names |= set(re.findall(r"\bset\((MBDAE_\w+)[^)]*\bCACHE\b", text))
    return names


OPTIONS = command_options()
ALL_OPTIONS = set().union(*OPTIONS.values())
WP_OPTIONS = workprecision_options()
CMAKE_OPTIONS = cmake_options()


def slug(heading):
    """GitHub's anchor of a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(text):
    seen, out = {}, set()
    for _, heading in headings(text):
        s = slug(heading)
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else f"{s}-{n}")
    return out


def headings(text):
    """(line number, heading text) of the ## and deeper headings outside code blocks."""
    fence = False
    for no, line in enumerate(text.split("\n"), 1):
        if line.startswith("```"):
            fence = not fence
        m = None if fence else re.match(r"^#+ (.*)$", line)
        if m:
            yield no, m.group(1)


def fragments(text):
    """(line, code, section command, block) for every code block line and inline code span: the
    code, where it is, and the command the section it is in is about (or None)."""
    section = {}  # heading level -> command
    fence, block = False, 0
    out = []
    prose = []
    for no, line in enumerate(text.split("\n"), 1):
        if line.startswith("```"):
            fence = not fence
            block += fence
            continue
        m = None if fence else re.match(r"^(#+) (.*)$", line)
        if m:
            level = len(m.group(1))
            word = re.sub(r"^mbdae ", "", m.group(2).replace("`", "")).split(" ")[0]
            section = {k: v for k, v in section.items() if k < level}
            section[level] = word if word in OPTIONS else None
        current = next((section[k] for k in sorted(section, reverse=True) if section[k]), None)
        if fence:
            out.append((no, line, current, block))
        else:
            prose.append((no, line, current))
    # inline spans may run over a line break: join each paragraph's lines
    para = []
    for item in prose + [(None, "", None)]:
        if item[1].strip():
            para.append(item)
            continue
        if para:
            joined = " ".join(p[1] for p in para)
            starts = []
            for p in para:
                starts += [p] * (len(p[1]) + 1)
            for m in re.finditer(r"`([^`]+)`", joined):
                no, _, current = starts[m.start()]
                out.append((no, m.group(1), current, None))
            for m in re.finditer(r"\[[^\]]*\]\(([^)\s]+)\)", joined):
                out.append((starts[m.start()][0], "LINK " + m.group(1), None, None))
        para = []
    return out


def strip(token):
    return token.strip("[](){},.;:'\"`")


def segment_owner(tokens, i, current):
    """Who the options of the shell command starting at tokens[i] belong to, and that command's
    mbdae command: (owner, command).  Environment assignments before it are skipped."""
    while i < len(tokens) and re.match(r"^[A-Z_]+=", tokens[i]):
        i += 1
    first = strip(tokens[i]) if i < len(tokens) else ""
    if first in FOREIGN_TOOLS or (i < len(tokens) and tokens[i] in FOREIGN_TOOLS):
        return "foreign", None
    if first.endswith(WORKPRECISION) or WORKPRECISION in (current or ""):
        return "workprecision", None
    if first in OPTIONS and i + 1 < len(tokens) and tokens[i + 1].startswith("--"):
        return None, first  # `sweep --report DIR`
    return None, None


def check_option(where, name, command, owner, current, problems):
    if name in PLACEHOLDERS:
        return
    if command == "":
        valid, whose = name in {"--help", "--version", "-h"}, "mbdae"
    elif command:
        valid, whose = name in OPTIONS[command], f"mbdae {command}"
    elif owner == "foreign":
        valid, whose = True, ""
    elif owner == "workprecision":
        valid, whose = name in WP_OPTIONS or name in ALL_OPTIONS, WORKPRECISION
    elif name in FOREIGN_OPTIONS:
        valid, whose = True, ""
    elif current:
        valid, whose = name in OPTIONS[current], f"mbdae {current} (the section's command)"
    else:
        valid, whose = name in ALL_OPTIONS or name in WP_OPTIONS, "any command"
    if not valid:
        problems.append(f"{where}: '{name}' is not an option of {whose}")


def check_fragment(where, code, current, problems, state):
    tokens = code.split()
    if not tokens:
        return
    continuation = code.startswith(" ") and state.get("command") and "mbdae" not in tokens
    owner, command = segment_owner(tokens, 0, current)
    if continuation:
        command = state["command"]
    depth = 0
    i = 0
    while i < len(tokens):
        t = tokens[i]
        depth += t.count("[") - t.count("]")
        if (t in SEPARATORS and depth <= 0) or t.startswith("#"):
            if t.startswith("#"):
                break
            owner, command = segment_owner(tokens, i + 1, current)
        elif t.startswith("$("):
            owner, command = "foreign", None  # $(pkg-config --cflags mbdae)
        elif re.fullmatch(r"([\w.$~/-]*/)?mbdae", strip(t)) and not (
                i > 0 and tokens[i - 1].startswith("--")):  # not the value of --cmd
            nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
            word = nxt.rstrip(":,.)`'\"")
            if not nxt or nxt.startswith("-"):
                command, owner = "", None  # mbdae --help: the global options
            elif re.fullmatch(r"[a-z]+", word):
                if word not in OPTIONS:
                    problems.append(f"{where}: 'mbdae {word}': no such command")
                command, owner = word, None
                i += 1
            else:
                command, owner = None, None  # a placeholder: mbdae COMMAND, mbdae <command>
                i += 1
        elif re.fullmatch(r"--[a-z0-9-]+", strip(t).split("=")[0]):
            check_option(where, strip(t).split("=")[0], command, owner, current, problems)
        for d in re.findall(r"-D(MBDAE_\w+)", t):
            if d not in CMAKE_OPTIONS:
                problems.append(f"{where}: -D{d} is not an option of CMakeLists.txt")
        i += 1
    state["command"] = command


def check_link(where, path, target, problems):
    if re.match(r"^[a-z]+:", target):
        return
    file, _, anchor = target.partition("#")
    dest = (path.parent / file).resolve() if file else path
    if not dest.exists():
        problems.append(f"{where}: link '{target}': no file {dest}")
    elif anchor and dest.suffix == ".md" and anchor not in anchors(dest.read_text()):
        problems.append(f"{where}: link '{target}': no heading #{anchor} in {dest.name}")


def check_text(path, text):
    problems = []
    state = {"block": None, "command": None}
    for no, code, current, block in fragments(text):
        where = f"{path.relative_to(ROOT)}:{no}"
        if code.startswith("LINK "):
            check_link(where, path, code[5:], problems)
            continue
        if block != state["block"]:
            state = {"block": block, "command": None}
        check_fragment(where, code, current, problems, state)
    return problems


def readme_test_command(text):
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    return blocks[1].strip() if len(blocks) > 1 else ""


def check_ci(readme_text):
    command = readme_test_command(readme_text)
    ci = (ROOT / ".ci" / "run").read_text().split("\n")
    if not command or command not in ci:
        return [f"README.md: the test command '{command}' is not a line of .ci/run"]
    return []


def check_skeleton(readme_text):
    """The README's C block, built as a plug-in and loaded by the command."""
    blocks = re.findall(r"```c\n(.*?)```", readme_text, re.S)
    if len(blocks) != 1:
        return [f"README.md: {len(blocks)} C blocks, expected the plug-in skeleton"]
    with tempfile.TemporaryDirectory() as tmp:
        src, lib = pathlib.Path(tmp) / "skeleton.c", pathlib.Path(tmp) / "skeleton.so"
        src.write_text(blocks[0])
        built = subprocess.run([CC, "-std=c11", "-shared", "-fPIC", f"-I{ROOT / 'include'}",
                                str(src), "-o", str(lib)], capture_output=True, text=True)
        if built.returncode != 0:
            return [f"README.md: the plug-in skeleton does not build:\n{built.stderr}"]
        listed = subprocess.run([MBDAE, "list", "--plugin", str(lib)], capture_output=True,
                                text=True)
        ids = re.findall(r'\.id = "(\w+)"', blocks[0])
        if listed.returncode != 0 or not ids or not re.search(rf"^{ids[0]} ", listed.stdout, re.M):
            return [f"README.md: the plug-in skeleton does not load (exit {listed.returncode}):\n"
                    f"{listed.stderr}"]
    return []


def documents():
    return [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "doc").glob("*.md"))]


def main():
    problems = []
    for path in documents():
        problems += check_text(path, path.read_text())
    readme = (ROOT / "README.md").read_text()
    problems += check_ci(readme)
    problems += check_skeleton(readme)
    for p in problems:
        print(p)
    count = len(problems)
    # The checks can fail: each planted defect is caught.
    plants = [
        ("a bogus option", "\n`mbdae sweep all --bogus-option 3`\n", "--bogus-option"),
        ("another command's option", "\n```sh\nmbdae run caraxis --jobs 2\n```\n", "--jobs"),
        ("a bogus command", "\nRun `mbdae frobnicate caraxis`.\n", "frobnicate"),
        ("a bogus option in a section", "\n## bench\n\nWith `--bogus-flag`.\n", "--bogus-flag"),
        ("a broken link", "\nSee [x](doc/nonexistent.md).\n", "nonexistent.md"),
        ("a broken anchor", "\nSee [x](doc/command.md#no-such-heading).\n", "no-such-heading"),
        ("an unknown CMake option", "\n`cmake -S . -B b -DMBDAE_NOSUCH=ON`\n", "MBDAE_NOSUCH"),
    ]
    for what, text, needle in plants:
        found = check_text(ROOT / "README.md", readme + text)
        if not any(needle in p for p in found):
            print(f"FAILED: {what} ({text.strip()}) was not caught")
            count += 1
    changed = readme.replace("ctest --test-dir build", "ctest -j2 --test-dir build")
    if changed == readme or not check_ci(changed):
        print("FAILED: a test command that .ci/run does not run was not caught")
        count += 1
    if not check_skeleton(readme.replace("*list = my_solvers;", "*list = my_solvers")):
        print("FAILED: a skeleton that does not build was not caught")
        count += 1
    nfrag = sum(len(fragments(p.read_text())) for p in documents())
    print(f"test_docs: {len(documents())} documents, {nfrag} code fragments and links, "
          f"{len(OPTIONS)} commands; {count} problems")
    return 1 if count else 0


if __name__ == "__main__":
    sys.exit(main())
