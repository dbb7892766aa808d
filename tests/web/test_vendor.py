"""The web interface's vendored libraries and generated assets match what produced them.

- Every file of web/vendor/lock.json is on disk with the lock's sha256, no other module sits in
  the folder, and index.html's import map names exactly the lock's modules (so nothing is
  fetched from elsewhere: no CDN).
- ``tools/vendor.py`` refuses a tarball whose integrity or a file's sha256 differs from the lock
  and then writes nothing (checked with fake tarballs: no network here).
- The card sprite is what ``tools/make_cards.py`` draws, with all 52 cards and the back.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import io
import json
import re
import sys
import tarfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "twentyone" / "web"
LOCK = WEB / "vendor" / "lock.json"


def _tool(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"tools_{name}", ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _lock() -> dict[str, Any]:
    return dict(json.loads(LOCK.read_text(encoding="utf-8")))


def _import_map() -> dict[str, str]:
    index = (WEB / "index.html").read_text(encoding="utf-8")
    found = re.search(r'<script type="importmap">(.*?)</script>', index, re.S)
    assert found, "index.html has an import map"
    return dict(json.loads(found.group(1))["imports"])


def test_each_vendored_file_has_the_locks_sha256() -> None:
    lock = _lock()
    checked = 0
    for package in lock["packages"]:
        assert re.fullmatch(r"\d+\.\d+\.\d+", package["version"]), package["name"]
        assert package["tarball"].startswith("https://registry.npmjs.org/")
        assert package["tarball"].endswith(f"-{package['version']}.tgz")
        assert package["integrity"].startswith("sha512-")
        for name, entry in package["files"].items():
            data = (WEB / "vendor" / name).read_bytes()
            assert hashlib.sha256(data).hexdigest() == entry["sha256"], name
            checked += 1
    assert checked >= 5  # preact, its hooks, htm, signals and signals-core


def test_the_vendor_folder_holds_only_the_locks_files() -> None:
    listed = {name for package in _lock()["packages"] for name in package["files"]}
    on_disk = {path.name for path in (WEB / "vendor").iterdir()} - {"lock.json"}
    assert on_disk == listed


def test_the_import_map_names_every_package_and_only_vendored_files() -> None:
    lock = _lock()
    imports = _import_map()
    wanted = {
        module: f"/static/vendor/{file}"
        for package in lock["packages"]
        for module, file in package["imports"].items()
    }
    assert imports == wanted
    for package in lock["packages"]:
        assert package["name"] in imports, f"{package['name']} is not in the import map"
    index = (WEB / "index.html").read_text(encoding="utf-8")
    assert "http://" not in index and "https://" not in index  # every asset from this server


def test_no_module_of_the_site_loads_anything_from_another_origin() -> None:
    for path in [*WEB.glob("js/*.js"), *WEB.glob("pages/*.js"), *WEB.glob("css/*.css")]:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"""(import|from|url\()\s*['"(]?\s*https?://""", text), path.name


def test_the_offline_check_of_the_tool_passes() -> None:
    vendor = _tool("vendor")
    assert vendor.check(vendor.load_lock()) == []


def _fake_package(files: dict[str, bytes]) -> tuple[bytes, str]:
    """An npm-style tarball (files under package/) and its sha512 integrity."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    tarball = buffer.getvalue()
    return tarball, "sha512-" + base64.b64encode(hashlib.sha512(tarball).digest()).decode()


def _fake_lock(integrity: str, sha256: str) -> dict[str, Any]:
    return {
        "packages": [
            {
                "name": "fake",
                "version": "1.0.0",
                "tarball": "https://registry.npmjs.org/fake/-/fake-1.0.0.tgz",
                "integrity": integrity,
                "files": {"fake.mjs": {"from": "dist/fake.mjs", "sha256": sha256}},
                "imports": {"fake": "fake.mjs"},
            }
        ]
    }


def test_the_tool_takes_a_tarball_that_matches_the_lock(monkeypatch: pytest.MonkeyPatch) -> None:
    vendor = _tool("vendor")
    body = b"export const answer = 42;\n"
    tarball, integrity = _fake_package({"dist/fake.mjs": body, "README.md": b"hi"})
    monkeypatch.setattr(vendor, "fetch", lambda url: tarball)
    files = vendor.vendor(_fake_lock(integrity, hashlib.sha256(body).hexdigest()))
    assert files == {"fake.mjs": body}


def test_the_tool_refuses_a_tarball_with_another_integrity(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    vendor = _tool("vendor")
    body = b"export const answer = 42;\n"
    tarball, _ = _fake_package({"dist/fake.mjs": body})
    other, integrity = _fake_package({"dist/fake.mjs": b"export const answer = 41;\n"})
    assert other != tarball
    monkeypatch.setattr(vendor, "fetch", lambda url: tarball)
    with pytest.raises(vendor.VendorError, match="integrity mismatch"):
        vendor.vendor(_fake_lock(integrity, hashlib.sha256(body).hexdigest()))


def test_the_tool_refuses_a_file_with_another_sha256(monkeypatch: pytest.MonkeyPatch) -> None:
    vendor = _tool("vendor")
    tarball, integrity = _fake_package({"dist/fake.mjs": b"export const answer = 42;\n"})
    monkeypatch.setattr(vendor, "fetch", lambda url: tarball)
    with pytest.raises(vendor.VendorError, match="differs from the lock"):
        vendor.vendor(_fake_lock(integrity, hashlib.sha256(b"something else").hexdigest()))


def test_the_card_sprite_is_what_the_script_draws() -> None:
    cards = _tool("make_cards")
    text = cards.sprite()
    assert cards.sprite() == text  # deterministic
    assert (WEB / "img" / "cards.svg").read_text(encoding="utf-8") == text
    symbols = set(re.findall(r'<symbol id="(card-[^"]+)"', text))
    assert len(symbols) == 53
    assert {"card-AS", "card-TD", "card-KC", "card-back"} <= symbols
    # The four-colour deck works through CSS custom properties, one per suit.
    for suit in ("spade", "heart", "diamond", "club"):
        assert f"var(--suit-{suit}," in text


def test_every_sound_the_front_end_plays_is_there() -> None:
    source = (WEB / "js" / "sound.js").read_text(encoding="utf-8")
    found = re.search(r"SOUNDS = \[([^\]]*)\]", source)
    assert found
    names = re.findall(r'"(\w+)"', found.group(1))
    assert names == ["card", "chip", "win", "lose", "tick"]
    for name in names:
        data = (WEB / "sounds" / f"{name}.wav").read_bytes()
        assert data[:4] == b"RIFF" and data[8:12] == b"WAVE", name
        assert 200 < len(data) < 60_000, f"{name}.wav is {len(data)} bytes"
