#!/usr/bin/env python3
"""Decodes a keyed archive with a third-party Python reader and compares it with what the
Swift test expected, in a small typed JSON form that keeps booleans, integers and reals apart:

  null | {"bool": b} | {"int": n} | {"real": x} | {"str": s} | {"data": base64}
  | {"date": seconds since 2001} | {"array": [...]} | {"set": [...]} | {"dict": [[k, v], ...]}

usage: decode_check.py plistlib|bpylist2|nskeyedunarchiver|typedjson CASES.json
CASES.json is a list of {"archive": PATH, "key": TOPKEY, "expected": TYPED}. Exit 0 when every
archive decodes to its expected value; else 1, with one line per failing case on stderr.
"""
import base64
import contextlib
import datetime
import io
import json
import plistlib
import sys

APPLE_EPOCH = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)


def typed(value):
    """Typed JSON of a decoded Python value (bool before int: bool is an int in Python)."""
    try:
        from bpylist2.archive_types import timestamp, NSMutableData
    except ImportError:  # pragma: no cover
        timestamp = NSMutableData = ()
    if value is None:
        return None
    if isinstance(value, bool):
        return {"bool": value}
    if timestamp and isinstance(value, timestamp):
        return {"date": float(value) - timestamp.unix2apple_epoch_delta}
    if isinstance(value, int):
        return {"int": value}
    if isinstance(value, float):
        return {"real": value}
    if isinstance(value, str):
        return {"str": value}
    if NSMutableData and isinstance(value, NSMutableData):
        return {"data": base64.b64encode(value.data).decode()}
    if isinstance(value, (bytes, bytearray)):
        return {"data": base64.b64encode(bytes(value)).decode()}
    if isinstance(value, datetime.datetime):
        return {"date": (value - APPLE_EPOCH).total_seconds()}
    if isinstance(value, (set, frozenset)):
        return {"set": [typed(item) for item in value]}
    if isinstance(value, list):
        return {"array": [typed(item) for item in value]}
    if isinstance(value, dict):
        if set(value.keys()) == {"NS.objects"}:  # nskeyedunarchiver leaves NSSet as its fields
            return {"set": [typed(item) for item in value["NS.objects"]]}
        return {"dict": [[typed(k), typed(v)] for k, v in value.items()]}
    raise TypeError(f"unexpected decoded type {type(value).__name__}")


def resolve_uid(value):
    return value["CF$UID"] if isinstance(value, dict) else value.data


def plistlib_decode(data, key):
    """A minimal keyed unarchiver over plistlib, to check the plist layer on its own."""
    plist = plistlib.loads(data)
    objects = plist["$objects"]

    def resolve(value):
        if isinstance(value, dict) and list(value.keys()) == ["CF$UID"]:  # XML: plistlib leaves UIDs as dicts
            value = plistlib.UID(value["CF$UID"])
        if isinstance(value, plistlib.UID):
            if value.data == 0:
                return None
            value = objects[value.data]
        if not isinstance(value, dict):
            return value
        class_uid = resolve_uid(value["$class"])
        name = objects[class_uid]["$classname"]
        if name in ("NSArray", "NSMutableArray"):
            return [resolve(item) for item in value["NS.objects"]]
        if name in ("NSSet", "NSMutableSet"):
            return set(resolve(item) for item in value["NS.objects"])
        if name in ("NSDictionary", "NSMutableDictionary"):
            return {resolve(k): resolve(v) for k, v in zip(value["NS.keys"], value["NS.objects"])}
        if name == "NSDate":
            return APPLE_EPOCH + datetime.timedelta(seconds=value["NS.time"])
        if name in ("NSString", "NSMutableString"):
            return value["NS.string"]
        if name in ("NSData", "NSMutableData"):
            return value["NS.data"]
        raise TypeError(f"class {name} not handled")

    return resolve(plist["$top"][key])


def bpylist2_decode(data, key):
    from bpylist2 import archiver
    if key == "root":
        return archiver.unarchive(data)
    unarchiver = archiver.Unarchive(data)  # unarchive() insists on 'root': read another key
    plist = plistlib.loads(data)
    unarchiver.objects = plist["$objects"]
    return unarchiver.decode_object(plist["$top"][key])


def nskeyedunarchiver_decode(data, key):
    import NSKeyedUnArchiver
    with contextlib.redirect_stdout(io.StringIO()):  # it prints debug lines to stdout
        result = NSKeyedUnArchiver.unserializeNSKeyedArchiver(data)
    # With 'root' as the only top key it returns the root object itself, not the $top dict.
    if key == "root" and len(plistlib.loads(data)["$top"]) == 1:
        return result
    return result[key]


def difference(expected, actual, path=""):
    if isinstance(expected, dict) and isinstance(actual, dict) and len(expected) == 1 and expected.keys() == actual.keys():
        kind = next(iter(expected))
        want, got = expected[kind], actual[kind]
        if kind == "date":
            return None if abs(want - got) <= 1e-6 else f"{path}: date {want} != {got}"
        if kind == "real":
            return None if want == got and type(got) is float else f"{path}: real {want!r} != {got!r}"
        if kind in ("set", "dict"):
            remaining = list(got)
            if len(want) != len(remaining):
                return f"{path}: {kind} of {len(want)} != {len(remaining)}"
            for item in want:
                match = next((i for i, other in enumerate(remaining) if difference(item, other) is None), None)
                if match is None:
                    return f"{path}: no match for {json.dumps(item)[:200]}"
                remaining.pop(match)
            return None
        if kind == "array":
            if len(want) != len(got):
                return f"{path}: array of {len(want)} != {len(got)}"
            for index, (a, b) in enumerate(zip(want, got)):
                problem = difference(a, b, f"{path}/{index}")
                if problem:
                    return problem
            return None
        return None if want == got else f"{path}: {kind} {want!r} != {got!r}"
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        for index, (a, b) in enumerate(zip(expected, actual)):
            problem = difference(a, b, f"{path}/{index}")
            if problem:
                return problem
        return None
    return None if expected == actual else f"{path}: {json.dumps(expected)[:200]} != {json.dumps(actual)[:200]}"


def check(library, case):
    """None if the archive decodes to the expected value, else what went wrong."""
    decoders = {"plistlib": plistlib_decode, "bpylist2": bpylist2_decode, "nskeyedunarchiver": nskeyedunarchiver_decode}
    with open(case["archive"], "rb") as handle:
        data = handle.read()
    if library == "typedjson":  # a decoding made elsewhere (Foundation, in Swift), already typed
        return difference(case["expected"], json.loads(data))
    try:
        actual = typed(decoders[library](data, case.get("key", "root")))
    except Exception as error:  # the library could not read our archive
        return f"failed: {type(error).__name__}: {error}"
    return difference(case["expected"], actual)


def main():
    library, cases_path = sys.argv[1:3]
    with open(cases_path) as handle:
        cases = json.load(handle)
    failures = 0
    for case in cases:
        problem = check(library, case)
        if problem:
            failures += 1
            print(f"{library} {case['archive']}: {problem}", file=sys.stderr)
    print(f"{library}: {len(cases) - failures} ok, {failures} failing")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
