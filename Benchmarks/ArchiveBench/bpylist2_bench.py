#!/usr/bin/env python3
"""bpylist2 side of the archive benchmark: decodes the diary archive given (written by our
codec, top key 'Diary') and encodes the same entries with bpylist2's archiver. Prints one JSON
line: {"decode_s": best CPU seconds, "encode_s": best CPU seconds, "entries": n}.

usage: bpylist2_bench.py DIARY_ARCHIVE [REPEATS]
"""
import json
import plistlib
import sys
import time

from bpylist2 import archiver


def decode(data):
    # unarchive() insists on a 'root' top key; the diary's key is 'Diary'.
    unarchiver = archiver.Unarchive(data)
    plist = plistlib.loads(data)
    unarchiver.objects = plist["$objects"]
    return unarchiver.decode_object(plist["$top"]["Diary"])


def best(function, repeats):
    times = []
    for _ in range(repeats):
        start = time.thread_time()  # CPU time: the machine is shared, as in main.swift
        function()
        times.append(time.thread_time() - start)
    return min(times)


def main():
    path = sys.argv[1]
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    with open(path, "rb") as handle:
        data = handle.read()
    entries = decode(data)
    decode_s = best(lambda: decode(data), repeats)
    encode_s = best(lambda: archiver.archive(entries), repeats)
    print(json.dumps({"decode_s": decode_s, "encode_s": encode_s, "entries": len(entries)}))


if __name__ == "__main__":
    main()
