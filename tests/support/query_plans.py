"""What SQL a piece of code sends, and how PostgreSQL would answer it: for tests that hold a query to an index."""
from __future__ import annotations

from typing import Any, Callable

from ckan import model
from sqlalchemy import event


def statements_sent(call: Callable[..., Any], *args: Any) -> list[tuple[str, Any]]:
    """The statements ``call(*args)`` sends, with their parameters."""
    sent: list[tuple[str, Any]] = []

    def record(connection, cursor, statement, parameters, context, many):
        sent.append((statement, parameters))

    engine = model.Session.get_bind()
    event.listen(engine, "before_cursor_execute", record)
    try:
        call(*args)
    finally:
        event.remove(engine, "before_cursor_execute", record)
    return sent


def _subtree(node: dict) -> list[dict]:
    return [node] + [found for child in node.get("Plans", []) for found in _subtree(child)]


def plan_nodes(statement: str, parameters: Any) -> list[dict]:
    """Every node of the statement's plan when the planner is told to avoid sequential scans, so that the plan shows
    whether an index can answer it at all (a small test table would be read whole anyway)."""
    connection = model.Session.connection()
    connection.exec_driver_sql("SET LOCAL enable_seqscan = off")
    [(plan,)] = connection.exec_driver_sql("EXPLAIN (FORMAT JSON) " + statement, parameters).fetchall()
    model.Session.rollback()
    return _subtree(plan[0]["Plan"])


def reads_whole(table: str, statement: str, parameters: Any) -> bool:
    """Whether the statement reads ``table`` whole: a sequential scan, or an index read end to end through a filter."""

    def whole(node: dict) -> bool:
        # A bitmap heap scan reads what the bitmap index scans beneath it (its own subtree) found.
        if node["Node Type"] == "Bitmap Heap Scan":
            return any("Index Cond" not in scan for scan in _subtree(node) if scan["Node Type"] == "Bitmap Index Scan")
        return node["Node Type"] == "Seq Scan" or node["Node Type"].startswith("Index") and "Index Cond" not in node

    return any(node.get("Relation Name") == table and whole(node) for node in plan_nodes(statement, parameters))
