"""Text contrast of the extension's badges, alerts and links, computed from the colours CKAN's theme (main.css) and
the extension's stylesheet (assets/catalog/passport.css) give the classes its templates use: no browser, because
axe cannot measure text on CKAN's textured backgrounds. WCAG 2.1 1.4.3: 4.5:1, 3:1 for large text (none of these
is large); 1.4.1: a link told from its text by colour alone needs 3:1 against it."""
from __future__ import annotations

import re
from pathlib import Path

import ckan
import pytest

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "ckanext" / "passport" / "templates"
THEME = Path(ckan.__file__).parent / "public" / "base" / "css" / "main.css"
OURS = ROOT / "ckanext" / "passport" / "assets" / "catalog" / "passport.css"
WHITE = (255, 255, 255)
NORMAL_TEXT = 4.5
LINK_AGAINST_TEXT = 3.0

Colour = tuple[int, int, int]


def _rules(css: str) -> dict[str, dict[str, str]]:
    """Top-level rules by single selector (a selector list counts for each of its selectors), later ones winning,
    with custom properties resolved later; @media blocks are left out (the walks' 1280 px is the default case)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    rules: dict[str, dict[str, str]] = {}
    depth = 0
    for match in re.finditer(r"([^{}]*)\{([^{}]*)\}|([{}])", css):
        selectors, body, brace = match.groups()
        selectors = selectors and selectors.rsplit(";", 1)[-1]  # after a statement such as @charset
        if brace == "}":
            depth = max(depth - 1, 0)
            continue
        if selectors is None or selectors.strip().startswith("@") or depth:
            continue
        declarations = dict(
            (name.strip(), value.strip()) for name, _, value in
            (part.partition(":") for part in body.split(";") if ":" in part))
        for selector in selectors.split(","):
            rules.setdefault(" ".join(selector.split()), {}).update(declarations)
    return rules


def _stylesheet() -> dict[str, dict[str, str]]:
    rules = _rules(re.sub(r"@media[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}", "", THEME.read_text()))
    for selector, declarations in _rules(OURS.read_text()).items():
        rules.setdefault(selector, {}).update(declarations)
    return rules


RULES = _stylesheet()


def _colour(value: str | None) -> Colour | None:
    if value is None:
        return None
    value = value.replace("!important", "").strip()
    # var(--name) or var(--name, fallback), resolved from :root until none is left (a value no substitution
    # changes, or one nested too deep, is not a colour this test can read).
    for _ in range(10):
        if "var(" not in value:
            break
        value = re.sub(r"var\(\s*(--[\w-]+)\s*(?:,\s*([^()]*))?\)",
                       lambda m: RULES[":root"].get(m.group(1), m.group(2) or ""), value)
    else:
        return None
    if value.startswith("#"):
        digits = value[1:] if len(value) == 7 else "".join(c * 2 for c in value[1:4])
        return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)
    numbers = re.match(r"rgba?\(\s*([\d.]+),\s*([\d.]+),\s*([\d.]+)", value)
    return tuple(round(float(n)) for n in numbers.groups()) if numbers else None  # type: ignore[return-value]


def _property(classes: list[str], name: str) -> str | None:
    """The value the classes give a property: an !important one wins, else the last class's; custom properties the
    classes set (Bootstrap 5.3's ``.alert-info { --bs-alert-color: … }`` that ``.alert``'s ``color`` reads) resolved
    in it, the rest from :root by :func:`_colour`."""
    values = [RULES.get("." + c, {}).get(name) for c in classes]
    values = [v for v in values if v]
    important = [v for v in values if "!important" in v]
    value = (important or values or [None])[-1]
    own = {key: v for c in classes for key, v in RULES.get("." + c, {}).items() if key.startswith("--")}
    for _ in range(10):
        if value is None or not any(f"var({key})" in value for key in own):
            break
        value = re.sub(r"var\((--[\w-]+)\)", lambda m: own.get(m.group(1), m.group(0)), value)
    return value


def _luminance(colour: Colour) -> float:
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: Colour, other: Colour) -> float:
    light, dark = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _class_variants(attribute: str) -> list[list[str]]:
    """The class lists a template's class attribute can give: its fixed classes with each string literal of its
    Jinja expressions in turn (``{{ 'bg-danger' if ... else 'bg-warning text-dark' }}``): a class is written whole
    in a template, never built from a variable (``bg-{{ kind }}``), so that this test sees it."""
    fixed = re.sub(r"\{\{.*?\}\}", " ", attribute).split()
    literals = [literal for expression in re.findall(r"\{\{(.*?)\}\}", attribute)
                for literal in re.findall(r"'([^']*)'", expression) if re.match(r"(bg|text|alert)-", literal)]
    return [fixed + literal.split() for literal in literals] or [fixed]


def _template_classes(marker: str) -> dict[str, list[str]]:
    """Every class list carrying ``marker`` in the extension's templates, named by template and classes."""
    found: dict[str, list[str]] = {}
    for template in sorted(TEMPLATES.rglob("*.html")):
        for attribute in re.findall(r'class="([^"]*)"', template.read_text()):
            if marker in attribute.split():
                for classes in _class_variants(attribute):
                    found[f"{template.relative_to(TEMPLATES)}: {' '.join(classes)}"] = classes
    return found


BADGES = _template_classes("badge")
ALERTS = _template_classes("alert")


@pytest.mark.parametrize("classes", BADGES.values(), ids=BADGES.keys())
def test_every_badge_text_reads_against_its_background(classes: list[str]):
    text = _colour(_property(["badge", *classes], "color"))
    background = _colour(_property(classes, "background-color")) or WHITE  # no background of its own: the page's
    assert contrast(text, background) >= NORMAL_TEXT, (text, background)


@pytest.mark.parametrize("classes", ALERTS.values(), ids=ALERTS.keys())
def test_every_alert_text_and_its_links_read_against_the_alert(classes: list[str]):
    text = _colour(_property(classes, "color"))
    background = _colour(_property(classes, "background-color"))
    assert contrast(text, background) >= NORMAL_TEXT, (text, background)
    link = RULES.get(".alert a:not(.btn)", RULES["a"]).get("color")
    link_colour = text if link == "inherit" else _colour(link)
    assert contrast(link_colour, background) >= NORMAL_TEXT, (link_colour, background)


@pytest.mark.parametrize("links", [
    ".passport-portal-links a", ".passport-field-problems a", ".passport-publication td a", ".lkod-reason-fix",
    ".lkod-organization-catalog-format"])
def test_links_in_running_text_are_told_from_it_by_more_than_colour(links: str):
    underlined = RULES.get(links, {}).get("text-decoration", "").startswith("underline")
    text, link = _colour(RULES["body"]["color"]), _colour(RULES["a"]["color"])
    assert underlined or contrast(link, text) >= LINK_AGAINST_TEXT


def test_a_finding_s_code_reads_against_the_source_form_s_error_block():
    """A config error's code (snippets/finding.html: small.passport-finding-code.text-muted > code) on the error
    block's dark red: Bootstrap's grey and code's pink read there at 2:1 unless the code takes the block's colour."""
    block = RULES[".error-block.passport-config-errors"]
    colour = _colour(block["color"])
    for element, theirs in ((".error-block .passport-finding-code", ".text-muted"),
                            (".error-block .passport-finding-code code", "code")):
        ours, base = RULES.get(element, {}).get("color"), RULES[theirs]["color"]
        value = ours if ours and ("!important" in ours or "!important" not in base) else base
        if not value.startswith("inherit"):
            colour = _colour(value)
    assert contrast(colour, _colour(block["background"])) >= NORMAL_TEXT, colour
