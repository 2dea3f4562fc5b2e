"""What the demo's tests share: dev/demo_workflow.py (dev/ is no package: the demo runs it as a script), and the
demo's config and harvest source config as dev/ckan.ini and dev/demo.sh write them."""
from __future__ import annotations

import configparser
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "dev"))
import demo_workflow  # noqa: E402

__all__ = ["ROOT", "demo_config", "demo_source_config", "demo_workflow"]


def demo_config() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(ROOT / "dev" / "ckan.ini", encoding="utf-8")
    return parser["app:main"]


def demo_source_config() -> dict:
    """The source config dev/demo.sh creates the demo's harvest source with."""
    script = (ROOT / "dev" / "demo.sh").read_text(encoding="utf-8")
    return json.loads(script.split("SOURCE_CONFIG='", 1)[1].split("'", 1)[0])
