"""The controlled vocabularies of the record, with their data files (``*.json``, ``iana-media-types.txt``) here.

vocab (the vocabularies, labels, facets, a list field's value) · search (search-as-you-type) · actions
(``passport_vocab_search``) · auth · helpers (what the form's searchable selects render) · skos (EUROVOC's SKOS
file read as a stream) · cli (``ckan passport vocab``) · licences (the shipped licence list, ``licences.json``, in
the reader's language).
"""
