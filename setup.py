from setuptools import setup

# Metadata lives in setup.cfg; entry points stay here in the CKAN extension convention.
setup(
    entry_points="""
        [ckan.plugins]
        passport = ckanext.passport.plugins.catalog:PassportPlugin
        passport_harvester = ckanext.passport.plugins.harvester:PassportHarvesterPlugin
        passport_publish = ckanext.passport.plugins.publish:PassportPublishPlugin

        [babel.extractors]
        ckan = ckan.lib.extract:extract_ckan
    """,
    message_extractors={
        "ckanext": [
            ("**.py", "python", None),
            ("**.js", "javascript", None),
            ("**/templates/**.html", "ckan", None),
        ],
    },
)
