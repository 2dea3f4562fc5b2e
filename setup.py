"""The entry point CKAN's extension template has, for tools that still look for one (``python setup.py …``,
older pip editable installs). Everything about the package is declared in ``setup.cfg`` and ``pyproject.toml``."""
from setuptools import setup

setup()
