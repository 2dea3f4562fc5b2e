"""Words of ckanext-harvest and CKAN core that our pages show and that our catalogs translate for them.

Our catalog is merged over CKAN's for every page, so it also carries the words these packages leave English in
Czech or Russian. None of them is found by extraction from our code: ckanext-harvest builds its counts as
``_(action)`` and CKAN its search counts as ``'{number} ' + type + 's found'``, and `make i18n` does not read
CKAN core. Marked here, they are extracted with ours, so `make i18n` keeps their translations.
"""
from __future__ import annotations

from ckanext.passport.mr.problems import N_, Nn_

# ckanext-harvest's job counts (snippets/job_details.html, source/job/list.html): "3 added", "0 not modified".
HARVEST_JOB_COUNTS = (N_("added"), N_("updated"), N_("deleted"), N_("not modified"))

# CKAN's search count for the dataset type "harvest" (snippets/search_result_text.html), which replaces the
# count ckanext-harvest's own snippet sets: "23 harvests found".
HARVEST_SEARCH_COUNTS = (
    Nn_("{number} harvest found", "{number} harvests found", "number"),
    Nn_('{number} harvest found for "{query}"', '{number} harvests found for "{query}"', "number"),
    N_('No harvests found for "{query}"'),
    N_("No harvests found"),
)

# CKAN core's words its Russian catalog lacks (and its Czech one leaves English), shown on every page, the login
# form, the dataset search and the 403 page.
CORE_GAPS = (
    N_("Skip to main content"),
    N_("Username or Email"),
    N_("You can also access this registry using the %(api_link)s (see %(api_doc_link)s)."),
    N_("You might need to login to access this page."),
    N_("Click here to login"),
)

# Words a package we extract with ours also uses, which our catalogs must leave untranslated: the catalog merged over
# CKAN's would otherwise rename CKAN's own use of them on every page. ckanext-harvest's source tab says "About", and
# CKAN's main menu too; the tab's word is translated under its own message context instead.
LEFT_TO_CORE = ("About",)
