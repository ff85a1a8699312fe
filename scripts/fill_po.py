"""Fill English translations into a .po file from a {Chinese: English} table (keeps existing ones)."""

import re
import sys
from pathlib import Path

import yaml


def fill(po_path: Path, table: dict[str, str]) -> int:
    text = po_path.read_text(encoding="utf-8")
    filled = 0

    def repl(match: re.Match) -> str:
        nonlocal filled
        msgid, msgstr = match.group(1), match.group(2)
        key = (
            msgid.encode().decode("unicode_escape").encode("latin-1").decode("utf-8")
            if "\\" in msgid
            else msgid
        )
        if msgstr or key not in table:
            return match.group(0)
        filled += 1
        english = table[key].replace("\\", "\\\\").replace('"', '\\"')
        return f'msgid "{msgid}"\nmsgstr "{english}"'

    text = re.sub(r'^msgid "(.+)"\nmsgstr "(.*)"$', repl, text, flags=re.M)
    text = text.replace(
        '"Content-Type: text/plain; charset=CHARSET\\n"',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
    )
    text = text.replace("#, fuzzy\n", "", 1)
    po_path.write_text(text, encoding="utf-8")
    return filled


if __name__ == "__main__":
    po, table_file = Path(sys.argv[1]), Path(sys.argv[2])
    print(
        f"filled {fill(po, yaml.safe_load(table_file.read_text(encoding='utf-8')))} entries in {po}"
    )
