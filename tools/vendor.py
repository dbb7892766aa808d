"""Vendor the web interface's libraries from the npm registry, pinned by web/vendor/lock.json.

``python tools/vendor.py`` (``make vendor``) fetches each package's tarball named in the lock,
checks it against the lock's ``integrity`` (the registry's Subresource-Integrity sha512), takes
the lock's files out of it (``from``, a path inside the package) and checks each one's sha256;
only when every package and file checks out are the files in src/twentyone/web/vendor/
rewritten, so a failed run changes nothing.

``python tools/vendor.py --check`` fetches nothing: it checks the files on disk against the
lock's sha256 (tests/web/test_vendor.py does the same), and that index.html's import map names
exactly the lock's modules.

To move to a new version: edit the lock's ``version``, ``tarball`` and ``integrity`` (from
``npm view <name>@<version> dist``), run ``python tools/vendor.py --update`` (which fetches,
checks the integrity and writes each file's new sha256 into the lock), read the diff, commit.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import re
import sys
import tarfile
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "src" / "twentyone" / "web"
VENDOR = WEB / "vendor"
LOCK = VENDOR / "lock.json"
INDEX = WEB / "index.html"
REGISTRY = "https://registry.npmjs.org/"


class VendorError(Exception):
    """A tarball or a file does not match the lock, or the lock is malformed."""


def load_lock(path: Path = LOCK) -> dict[str, Any]:
    lock: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    for package in lock["packages"]:
        if not str(package["tarball"]).startswith(REGISTRY):
            raise VendorError(f"{package['name']}: the tarball is not on {REGISTRY}")
        for name in package["files"]:
            if "/" in name or name.startswith("."):
                raise VendorError(f"{package['name']}: {name!r} is not a plain file name")
    return lock


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def check_integrity(data: bytes, integrity: str) -> None:
    """``integrity`` is "sha512-<base64>" as npm writes it."""
    algorithm, _, expected = integrity.partition("-")
    if algorithm != "sha512":
        raise VendorError(f"unsupported integrity {algorithm!r} (want sha512)")
    got = base64.b64encode(hashlib.sha512(data).digest()).decode()
    if got != expected:
        raise VendorError(f"integrity mismatch: the lock says {integrity}, got sha512-{got}")


def fetch(url: str) -> bytes:
    request = urllib.request.Request(url, headers={"user-agent": "twentyone-vendor"})
    with urllib.request.urlopen(request, timeout=60) as response:
        data: bytes = response.read()
    return data


def extract(tarball: bytes, inside: str) -> bytes:
    """One file of an npm tarball (its files sit under ``package/``)."""
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
        try:
            member = archive.getmember(f"package/{inside}")
        except KeyError:
            raise VendorError(f"the tarball has no {inside}") from None
        handle = archive.extractfile(member)
        if handle is None:
            raise VendorError(f"{inside} in the tarball is not a file")
        return handle.read()


def import_map(index: Path = INDEX) -> dict[str, str]:
    """The import map of index.html: module name -> URL."""
    found = re.search(r'<script type="importmap">(.*?)</script>', index.read_text("utf-8"), re.S)
    if not found:
        raise VendorError(f"{index} has no import map")
    imports: dict[str, str] = json.loads(found.group(1))["imports"]
    return imports


def expected_imports(lock: dict[str, Any]) -> dict[str, str]:
    """The import map the lock calls for: each package's modules at /static/vendor/<file>."""
    return {
        module: f"/static/vendor/{file}"
        for package in lock["packages"]
        for module, file in package["imports"].items()
    }


def check(lock: dict[str, Any]) -> list[str]:
    """What is wrong with the files on disk (nothing: an empty list)."""
    problems = []
    for package in lock["packages"]:
        for name, entry in package["files"].items():
            path = VENDOR / name
            if not path.exists():
                problems.append(f"{name} ({package['name']}) is missing")
            elif sha256(path.read_bytes()) != entry["sha256"]:
                problems.append(f"{name} ({package['name']}) differs from the lock's sha256")
    if import_map() != expected_imports(lock):
        problems.append("index.html's import map differs from the lock's modules")
    return problems


def vendor(lock: dict[str, Any], update: bool = False) -> dict[str, bytes]:
    """Fetch and check every package; the files to write (name -> bytes)."""
    files: dict[str, bytes] = {}
    for package in lock["packages"]:
        label = f"{package['name']}@{package['version']}"
        print(f"fetching {label}", file=sys.stderr)
        tarball = fetch(package["tarball"])
        check_integrity(tarball, package["integrity"])
        for name, entry in package["files"].items():
            data = extract(tarball, entry["from"])
            if update:
                entry["sha256"] = sha256(data)
            elif sha256(data) != entry["sha256"]:
                raise VendorError(f"{label}: {entry['from']} differs from the lock's sha256")
            files[name] = data
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="check the files on disk, offline")
    parser.add_argument(
        "--update", action="store_true", help="write the fetched files' sha256 into the lock"
    )
    args = parser.parse_args(argv)
    try:
        lock = load_lock()
        if args.check:
            problems = check(lock)
            for problem in problems:
                print(f"vendor: {problem}", file=sys.stderr)
            if not problems:
                print(f"vendor: {sum(len(p['files']) for p in lock['packages'])} files match")
            return 1 if problems else 0
        files = vendor(lock, update=args.update)
    except (VendorError, OSError, KeyError, ValueError) as error:
        print(f"vendor: {error}", file=sys.stderr)
        return 1
    for name, data in files.items():
        (VENDOR / name).write_bytes(data)
    if args.update:
        LOCK.write_text(json.dumps(lock, indent=2) + "\n", encoding="utf-8")
    print(f"vendor: wrote {len(files)} files to {VENDOR.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
