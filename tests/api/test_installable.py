"""The installable app's files as the service answers them: the manifest in each language,
the icons drawn by the project, and a service worker stamped with the release's version, whose
shell lists every file of the client, and which a release with any file changed replaces."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from service.blueprints import web
from tests.api.conftest import AppFactory


def test_the_manifest_names_the_app_in_each_language(make_app: AppFactory) -> None:
    client = make_app().test_client()
    for lang, name in (("en", "Love Letter"), ("ja", "ラブレター"), ("ko", "러브레터")):
        found = client.get(f"/manifest.webmanifest?lang={lang}")
        assert found.status_code == 200 and found.mimetype == "application/manifest+json"
        body = found.get_json(force=True)
        assert (body["name"], body["lang"], body["display"]) == (name, lang, "standalone")
        assert set(body["name_localized"]) == {"en", "ja", "ko", "vi"}
    asked = client.get("/manifest.webmanifest", headers={"Accept-Language": "vi-VN"})
    assert asked.get_json(force=True)["lang"] == "vi"
    for size in (192, 512):
        icon = client.get(f"/web/icons/icon-{size}.png")
        assert icon.status_code == 200 and icon.data.startswith(b"\x89PNG")
        assert int.from_bytes(icon.data[16:20], "big") == size
    assert client.get("/web/icons/icon-100.png").status_code == 404


def test_the_service_worker_is_stamped_and_keeps_the_whole_shell(make_app: AppFactory) -> None:
    client = make_app().test_client()
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript"
    assert "default-src 'self'" in worker.headers["Content-Security-Policy"]
    text = worker.get_data(as_text=True)
    assert "__VERSION__" not in text and "__SHELL__" not in text
    assert re.search(r'const VERSION = "[0-9a-f]{16}";', text)
    shell = re.search(r"const SHELL = (\[.*?\]);", text)
    assert shell is not None
    for module in Path(web.WEB_DIR, "js").glob("*.js"):
        assert f'"/web/js/{module.name}"' in shell.group(1), module.name
    for path in ('"/"', '"/web/offline.html"', '"/web/app.css"', '"/web/i18n/ja.json"'):
        assert path in shell.group(1)


def test_a_release_with_any_file_changed_has_another_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "web"
    shutil.copytree(web.WEB_DIR, copy)
    monkeypatch.setattr(web, "WEB_DIR", copy)
    web.release.cache_clear()
    try:
        before, _ = web.release()
        web.release.cache_clear()
        assert web.release()[0] == before  # the same files, the same version
        (copy / "js" / "app.js").write_text("// changed\n", encoding="utf-8")
        web.release.cache_clear()
        assert web.release()[0] != before
    finally:
        web.release.cache_clear()
