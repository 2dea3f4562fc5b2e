"""contrib/ runs what the README tells a portal to run: each unit, program and cron line a command it lists, with
the flags it documents, and every process it lists has its unit and its program."""
from __future__ import annotations

import configparser
import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONTRIB = ROOT / "contrib"
SYSTEMD = CONTRIB / "systemd"
SUPERVISOR = CONTRIB / "supervisor" / "ckan-passport.conf"
CRON = CONTRIB / "cron" / "ckan-passport"
UWSGI = CONTRIB / "uwsgi" / "ckan-uwsgi.ini"
DEMO_UWSGI = ROOT / "dev" / "uwsgi.ini"
CONFIG = "/etc/ckan/default/ckan.ini"


def command(line: str) -> str:
    """A command as the README writes it: the program by its name, without the configuration (``-c FILE``)."""
    words = shlex.split(line)
    words[0] = Path(words[0]).name
    if words[1:2] == ["-c"]:
        del words[1:3]
    return " ".join(words)


def readme_commands() -> set[str]:
    text = (ROOT / "README.md").read_text("utf-8")
    return {command(span) for span in re.findall(r"`((?:ckan|uwsgi) [^`]+)`", text)}


def _readme_section_commands(start: str, end: str) -> set[str]:
    body = (ROOT / "README.md").read_text("utf-8").split(start, 1)[1].split(end, 1)[0]
    return {command(span) for span in re.findall(r"`(ckan [^`]+)`", body)}


def _service(path: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str
    parser.read(path, encoding="utf-8")
    return parser["Service"]


def systemd_commands() -> dict[str, str]:
    return {path.name: command(_service(path)["ExecStart"]) for path in sorted(SYSTEMD.glob("*.service"))}


def systemd_commands_before_start() -> dict[str, str]:
    return {f"{path.name} ExecStartPre": command(_service(path)["ExecStartPre"])
            for path in sorted(SYSTEMD.glob("*.service")) if "ExecStartPre" in _service(path)}


def supervisor_commands() -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(SUPERVISOR, encoding="utf-8")
    return {section: command(parser[section]["command"]) for section in parser.sections()}


def cron_commands() -> list[str]:
    lines = [line for line in CRON.read_text("utf-8").splitlines() if line.strip() and not line.startswith("#")]
    # minute hour day month weekday user command...
    return [command(" ".join(line.split()[6:])) for line in lines]


def all_commands() -> list[tuple[str, str]]:
    return ([(name, run) for name, run in systemd_commands().items()]
            + [(name, run) for name, run in systemd_commands_before_start().items()]
            + [(f"supervisor {name}", run) for name, run in supervisor_commands().items()]
            + [(f"cron {run}", run) for run in cron_commands()])


@pytest.mark.parametrize("where, run", all_commands(), ids=[where for where, _ in all_commands()])
def test_each_file_runs_a_command_the_readme_lists(where, run):
    assert run in readme_commands(), f"{where} runs `{run}`, which the README does not list"


def test_every_process_the_readme_lists_has_a_unit_and_a_supervisor_program():
    processes = _readme_section_commands("server, a portal runs:", "The consumers and the worker are")
    processes -= {"ckan harvester run"}
    assert processes == {"ckan harvester gather-consumer", "ckan harvester fetch-consumer", "ckan jobs worker",
                         "ckan jobs worker passport_site_check"}
    assert processes <= set(systemd_commands().values())
    assert processes <= set(supervisor_commands().values())


def test_every_periodic_command_the_readme_lists_has_a_timer_and_a_cron_line():
    periodic = _readme_section_commands("**What cron must run:**", "\n\n")
    assert periodic == {"ckan harvester run", "ckan passport check-index --recent 60 --repair",
                        "ckan passport notices digest"}
    timed = {systemd_commands()[timer.with_suffix(".service").name] for timer in SYSTEMD.glob("*.timer")}
    assert timed == periodic
    assert set(cron_commands()) == periodic


def test_the_fetch_consumers_and_site_check_workers_are_template_units():
    templates = {run for name, run in systemd_commands().items() if name.endswith("@.service")}
    assert templates == {"ckan harvester fetch-consumer", "ckan jobs worker passport_site_check"}


def test_the_web_server_builds_ckans_script_messages_before_it_starts():
    assert systemd_commands_before_start() == {"ckan-uwsgi.service ExecStartPre": "ckan translation js"}


def test_every_long_running_unit_is_restarted_whenever_it_exits():
    for path in SYSTEMD.glob("*.service"):
        text = path.read_text("utf-8")
        if "Type=oneshot" not in text:
            assert "Restart=always" in text, path.name
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(SUPERVISOR, encoding="utf-8")
    assert all(parser[section]["autorestart"] == "true" for section in parser.sections())


def _uwsgi(path: Path) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(path, encoding="utf-8")
    return dict(parser["uwsgi"])


def test_the_uwsgi_ini_is_ckans_with_several_workers_loading_the_app_each():
    options = _uwsgi(UWSGI)
    assert options["wsgi-file"] == "/etc/ckan/default/wsgi.py"
    assert options["callable"] == "application" and options["master"] == "true"
    assert int(options["processes"]) >= 2
    assert options["lazy-apps"] == "true" and options["die-on-term"] == "true"


def test_the_demo_serves_with_the_portals_uwsgi_options():
    # The demo's ini differs only in what is the machine's: address, user, paths, how many workers.
    machine = {"http", "uid", "gid", "wsgi-file", "virtualenv", "pidfile", "processes"}
    portal = {key: value for key, value in _uwsgi(UWSGI).items() if key not in machine}
    demo = {key: value for key, value in _uwsgi(DEMO_UWSGI).items() if key not in machine}
    assert demo == portal
