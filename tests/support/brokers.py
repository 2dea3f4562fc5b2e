"""The queue backends ckanext-harvest offers, as a portal's configuration file sets them, for the tests and the
harvest benchmark that run real consumer processes: Redis and RabbitMQ, on the ports dev/services.sh starts them on
(REDIS_PORT, AMQP_PORT: test.ini's 6380 and 5673 unless the Makefile gives a set of services other ports)."""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[2]
BROKERS: dict[str, dict[str, str]] = {
    "redis": {"ckan.harvest.mq.port": os.environ.get("REDIS_PORT", "6380")},
    "amqp": {"ckan.harvest.mq.type": "amqp", "ckan.harvest.mq.hostname": "127.0.0.1",
             "ckan.harvest.mq.port": os.environ.get("AMQP_PORT", "5673"), "ckan.harvest.mq.user_id": "guest",
             "ckan.harvest.mq.password": "guest",
             "ckan.harvest.mq.virtual_host": "/"},
}


def consumer_ini(broker: str, folder: Path, more: Optional[dict[str, str]] = None) -> Path:
    """test.ini with the broker's options (and ``more``) over it: the file a portal's consumers would be started
    with. CKAN reads the logging sections from the file it is given, so they come along."""
    options = {**BROKERS[broker], **(more or {})}
    base = ROOT / "test.ini"
    if not options:
        return base
    text = base.read_text()
    ini = folder / f"{broker}.ini"
    ini.write_text(f"[app:main]\nuse = config:{base}\n" + "".join(f"{key} = {value}\n" for key, value in options.items())
                   + "\n" + text[text.index("[loggers]"):])
    return ini


def declare_empty_queues() -> None:
    """The gather and fetch queues of the configured backend exist, bound and empty, before anything is published:
    RabbitMQ drops a message published to an exchange no queue is bound to yet."""
    from ckanext.harvest import queue

    queue.get_gather_consumer(), queue.get_fetch_consumer()
    queue.purge_queues()


def wait_for_consumers(broker: str, fetch_consumers: int, seconds: float = 60) -> None:
    """On RabbitMQ a message goes to a consumer when it is published: the job starts once the gather consumer and
    every fetch consumer are subscribed, so each fetch consumer takes a share. Redis consumers pull; no wait."""
    if broker != "amqp":
        return
    from ckanext.harvest import queue

    connection = queue.get_connection()
    try:
        channel = connection.channel()
        deadline = time.monotonic() + seconds
        while (channel.queue_declare(queue.get_gather_queue_name(), passive=True).method.consumer_count < 1
               or channel.queue_declare(queue.get_fetch_queue_name(), passive=True).method.consumer_count
               < fetch_consumers):
            if time.monotonic() > deadline:
                raise TimeoutError("the harvest consumers never subscribed to RabbitMQ")
            time.sleep(0.2)
    finally:
        connection.close()
