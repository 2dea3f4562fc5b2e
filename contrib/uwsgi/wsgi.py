"""The WSGI entry point uWSGI loads (``wsgi-file``), as CKAN's deployment docs write it.

The configuration is ``CKAN_INI`` when set (the demo, ``dev/uwsgi.ini``), else the ``ckan.ini`` beside this file
(a portal's ``/etc/ckan/default/``, where CKAN's docs put both).
"""
import os
from logging.config import fileConfig

from ckan.cli import CKANConfigLoader
from ckan.config.middleware import make_app

config_path = os.environ.get("CKAN_INI") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "ckan.ini")
fileConfig(config_path, disable_existing_loggers=False)
application = make_app(CKANConfigLoader(config_path).get_config())
