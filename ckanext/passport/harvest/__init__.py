"""Harvesting: the MR harvester and what both source types (MR passports, LKOD catalogs) share."""
