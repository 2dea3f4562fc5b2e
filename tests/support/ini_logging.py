"""The logging sections an ini over test.ini needs: `use = config:` takes only [app:main], and CKAN's command line and
contrib/uwsgi/wsgi.py configure logging from the file they are given."""

LOGGING = """[loggers]
keys = root
[handlers]
keys = console
[formatters]
keys = generic
[logger_root]
level = WARNING
handlers = console
[handler_console]
class = StreamHandler
args = (sys.stderr,)
level = NOTSET
formatter = generic
[formatter_generic]
format = %(asctime)s %(levelname)-5.5s [%(name)s] %(message)s
"""
