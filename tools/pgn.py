"""The PGN reader the Python tools share (pairs.py, deployment.py,
trajectory.py): the games of a `calvin-match --pgnout` record, each as
its tags and its moves (comments, move numbers and the result left out)."""
import re

TAG = re.compile(r'^\[(\w+) "(.*)"\]$')
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def games(path):
    """[(tags, moves)] of the PGN file at `path`: a dict of the tag pairs
    and the list of move texts, in the order the games are recorded."""
    out, tags, text = [], {}, []

    def close():
        body = re.sub(r"\{[^}]*\}", " ", " ".join(text))
        moves = [t for t in body.split() if not re.match(r"^\d+\.+$", t) and t not in RESULTS]
        out.append((tags, moves))

    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            m = TAG.match(line)
            if m:
                if text:
                    close()
                    tags, text = {}, []
                tags[m.group(1)] = m.group(2)
            elif line:
                text.append(line)
    if tags:
        close()
    return out
