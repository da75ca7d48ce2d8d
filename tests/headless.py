"""Headless Chromium for the browser tests (the replay viewer, `sogo serve`): selenium driving Debian's
chromium and chromedriver (.ci/run installs them); a test is skipped with the reason where they are missing."""

from __future__ import annotations

import shutil
import tempfile
from typing import Any

import pytest

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")
"""Without the background-networking flags, Chromium's connections are refused by a closed network, many at a time."""


def chromium(width: int, height: int) -> Any:
    """A headless Chromium window of this size, with a fresh profile (skips the test without one)."""
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        pytest.skip("headless Chromium is not installed (.ci/run installs Debian's chromium and chromium-driver)")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    opts = Options()
    opts.binary_location = shutil.which("chromium")
    for flag in (*FLAGS, f"--user-data-dir={tempfile.mkdtemp()}", f"--window-size={width},{height}"):
        opts.add_argument(flag)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=opts)
