"""The portal as a Czech local open-data catalog (LKOD): the DCAT-AP-CZ interface, both ways."""
