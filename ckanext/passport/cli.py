"""`ckan passport …` commands."""
import click


@click.group()
def passport() -> None:
    """MR passports: check sites, parse files."""
