"""The ckanext-dcat profile ``dcat_ap_cz``: the Czech record as DCAT-AP-CZ, for the LKOD and for harvesting one.

It builds on ckanext-dcat's DCAT-AP 3 profile (its graph, its place in ``RDFSerializer`` / ``RDFParser``) but
writes and reads every property itself: DCAT-AP-CZ differs from what the base profile writes on nearly each
one (IRIs instead of blank nodes, Czech language tags, RPP, RÚIAN and EU authority IRIs, the conditions of
use). The mapping lives in ``graph_out`` (record to graph) and ``graph_in`` (graph to record); this class only
wires them to ckanext-dcat's interface.
"""
from __future__ import annotations

from typing import Any, Optional

from ckanext.dcat.profiles import EuropeanDCATAP3Profile
from rdflib import URIRef

from ckanext.passport.lkod import graph_in, graph_out, series


class DcatApCzProfile(EuropeanDCATAP3Profile):
    def graph_from_dataset(self, dataset_dict: dict[str, Any], dataset_ref: URIRef) -> None:
        graph_out.bind_prefixes(self.g)
        graph_out.add_dataset(self.g, dataset_dict, dataset_ref)
        series.add(self.g, dataset_dict, dataset_ref)

    def graph_from_catalog(self, catalog_dict: Optional[dict[str, Any]], catalog_ref: URIRef) -> None:
        graph_out.bind_prefixes(self.g)
        graph_out.add_catalog(self.g, catalog_dict or {}, catalog_ref)

    def parse_dataset(self, dataset_dict: dict[str, Any], dataset_ref: URIRef) -> dict[str, Any]:
        dataset_dict.update(graph_in.read_dataset(self.g, dataset_ref))
        return dataset_dict
