"""Applies to a document the preferred quick fix of every code-action answer
(or every rename answer) in a server's -lit-test output; prints the result.

usage: apply-edits.py DOCUMENT SERVER_OUTPUT
"""
import json
import re
import sys


def answers(output):
    for body in re.split(r"Content-Length: \d+\s*\n\s*\n", output):
        body = body.strip()
        if body:
            message = json.loads(body)
            if "id" in message and "result" in message:
                yield message["result"]


def main():
    text = open(sys.argv[1]).read()
    edits = []
    for result in answers(open(sys.argv[2]).read()):
        if isinstance(result, list):
            preferred = [a for a in result if isinstance(a, dict) and a.get("isPreferred")]
            if preferred:
                for changes in preferred[0]["edit"]["changes"].values():
                    edits += changes
        elif isinstance(result, dict) and "changes" in result:
            for changes in result["changes"].values():
                edits += changes
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def offset(position):
        return offsets[position["line"]] + position["character"]

    # From the end, so that earlier offsets stay valid.
    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        start, end = offset(edit["range"]["start"]), offset(edit["range"]["end"])
        text = text[:start] + edit["newText"] + text[end:]
    sys.stdout.write(text)


main()
