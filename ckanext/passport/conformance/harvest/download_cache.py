"""A finished job's whole report as a download (``.csv``, ``.json``), kept in Redis (CKAN's connection).

Building it reads, corrects and renders every passport of the job: seconds of CPU for a large source, which any
visitor may ask for again and again. A finished job's report does not change (its harvest objects are written
no more, an unchanged passport is the earlier object that read it), so its bytes are kept, keyed by the site, the
job, the source's name (the fixed files' links name it), the format, the language, the filter and the order. A
running job's are never kept: they would go stale. A source cleared or a record deleted removes no kept bytes, so
they live a day, as does a deploy's new translation of their texts.

Redis keeps every value in memory, beside CKAN's job queue and the rate limits' counters. So a body is kept
compressed (a report's text repeats itself: JSON shrinks to a tenth), and only when it is then at most
``MAX_KEPT_BYTES``; a larger one is built for each request as before. A Redis that fails costs the download
nothing but the cache.
"""
from __future__ import annotations

import hashlib
import json
import logging
import zlib
from typing import Callable, Optional, Sequence

from ckan.lib.redis import connect_to_redis
from ckanext.harvest.model import HarvestJob
from redis.exceptions import RedisError

from ckanext.passport import rate_limits

log = logging.getLogger(__name__)

KEPT_FOR = 24 * 60 * 60  # seconds
MAX_KEPT_BYTES = 4 * 1024 * 1024  # compressed
FINISHED = "Finished"


def key(job_id: str, parts: Sequence[str]) -> str:
    """The kept body's key: the job in the clear (an operator drops a job's by pattern), the rest hashed (a filter
    is the visitor's text)."""
    digest = hashlib.sha256(json.dumps(list(parts), ensure_ascii=False).encode("utf-8")).hexdigest()
    return rate_limits.key("report_download", job_id, digest)


def body(job: Optional[HarvestJob], parts: Sequence[str], build: Callable[[], bytes]) -> bytes:
    """The download of ``job``'s report that ``parts`` name: the kept bytes of a finished job, else ``build()``,
    kept when the job is finished."""
    if job is None or job.status != FINISHED:
        return build()
    name = key(job.id, parts)
    try:
        kept = connect_to_redis().get(name)
    except RedisError:
        log.warning("Could not read the kept report download %s", name, exc_info=True)
        kept = None
    if kept is not None:
        return zlib.decompress(kept)
    built = build()
    packed = zlib.compress(built)
    if len(packed) <= MAX_KEPT_BYTES:
        try:
            connect_to_redis().set(name, packed, ex=KEPT_FOR)
        except RedisError:
            log.warning("Could not keep the report download %s", name, exc_info=True)
    return built
