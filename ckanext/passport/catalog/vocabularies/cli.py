"""`ckan passport vocab …`: maintain the controlled vocabularies (the lead attaches ``vocab`` to ``passport``)."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import click

from ckanext.passport import settings

from . import skos, vocab


@click.group("vocab")
def vocab_group() -> None:
    """Controlled vocabularies of the catalog record (EUROVOC, CZ-NACE, territory)."""


@vocab_group.command("load")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def load(file: Path) -> None:
    """Load a full EUROVOC SKOS file (RDF/XML) into ckanext.passport.vocab_dir."""
    directory = settings.vocab_dir()
    if directory is None:
        raise click.UsageError(f"Set {settings.VOCAB_DIR} in the CKAN config first.")
    with open(file, "rb") as source:
        concepts, problems = skos.read_file(source)
    if problems:
        raise click.ClickException(f"{file} was not loaded: " + "; ".join(found.message() for found in problems))
    if not concepts:
        raise click.ClickException(f"No SKOS concepts with cs/en/ru labels found in {file}.")
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / vocab.LOADED_EUROVOC_FILE
    # Written aside and renamed, so a running portal never reads half a file.
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".eurovoc-", suffix=".json")
    with os.fdopen(handle, "w", encoding="utf-8") as stream:
        json.dump({"source": file.name, "concepts": concepts}, stream, ensure_ascii=False)
    os.replace(temporary, target)
    click.echo(f"Loaded {len(concepts)} EUROVOC concepts into {target}")

