"""Independent reader of the Parquet files the emulator writes (run by tests/helpers/pyarrow.ts in the
virtualenv of scripts/setup-python.sh).

Usage: read_parquet.py FILE [--rows N] [--columns a,b]. Prints one JSON object: the Arrow schema as text, the row count,
the number of row groups, each column's Arrow type, Parquet physical/logical type and codec, and the first N rows
(all when N is -1) with timestamps as ISO strings carrying microseconds. A file pyarrow cannot read makes it
exit non-zero with pyarrow's message on stderr.
"""
import argparse
import datetime
import json
import sys

import pyarrow.parquet as pq


def plain(value):
    """A JSON-serialisable form of one cell: timestamps as ISO 8601 with microseconds, bytes as text."""
    if isinstance(value, datetime.datetime):
        return value.isoformat(timespec="microseconds")
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--rows", type=int, default=-1)
    parser.add_argument("--columns", default=None)
    args = parser.parse_args()
    f = pq.ParquetFile(args.file)
    table = f.read(columns=args.columns.split(",") if args.columns else None)
    parquet_schema = f.schema
    # The first Parquet leaf of each top-level field (a list column's leaf is `<name>.list.element`).
    leaves = {}
    leaf_index = {}
    for i in range(len(parquet_schema)):
        leaf = parquet_schema.column(i)
        top = leaf.path.split(".")[0]
        leaves.setdefault(top, leaf)
        leaf_index.setdefault(top, i)
    columns = {}
    for field in table.schema:
        col = leaves.get(field.name)
        columns[field.name] = {
            "arrow": str(field.type),
            "nullable": field.nullable,
            "physical": col.physical_type if col is not None else None,
            "logical": str(col.logical_type) if col is not None else None,
            "compression": f.metadata.row_group(0).column(leaf_index[field.name]).compression
            if f.num_row_groups and field.name in leaf_index
            else None,
        }
    rows = table.to_pylist() if args.rows < 0 else table.slice(0, args.rows).to_pylist()
    json.dump(
        {
            "schema": str(table.schema),
            "numRows": table.num_rows,
            "numRowGroups": f.num_row_groups,
            "columns": columns,
            "rows": [plain(r) for r in rows],
        },
        sys.stdout,
    )


if __name__ == "__main__":
    main()
