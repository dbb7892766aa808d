"""``twentyone verify FILE|-``: recompute a provably fair round from its revealed record.

Exit status 0 when the commitment and every card match, 1 naming the first card that differs
(or the commitment that does not match), 2 for a file that is not a well-formed record.
"""

from __future__ import annotations

import json
import sys

import click

from twentyone.cli.errors import UserInputError, reports_bad_input
from twentyone.fairness import (
    CardMismatchError,
    FairnessRecord,
    VerificationError,
    verify_record,
)

#: The exit status of a record that does not verify.
NOT_VERIFIED = 1


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        raise UserInputError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise UserInputError(f"{path} is not UTF-8 text") from None


@click.command("verify")
@click.argument("path", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@reports_bad_input
def verify(path: str, as_json: bool) -> None:
    """Check the provably fair record in FILE ('-' reads standard input).

    FILE is a record (server_seed, commitment, client_seed, nonce, decks, position, cards) or a
    settled round as the API returns it (its "fairness" member is read).
    """
    record = FairnessRecord.from_json(json.loads(_read(path)))
    try:
        verify_record(record)
    except VerificationError as error:
        if as_json:
            out: dict[str, object] = {"verified": False, "error": str(error)}
            if isinstance(error, CardMismatchError):
                out["index"] = error.index
            click.echo(json.dumps(out))
        click.echo(f"twentyone: not verified: {error}", err=True)
        sys.exit(NOT_VERIFIED)
    if as_json:
        click.echo(
            json.dumps(
                {"verified": True, "cards": len(record.cards), "commitment": record.commitment}
            )
        )
    else:
        click.echo(
            f"verified: the seed matches commitment {record.commitment} and all"
            f" {len(record.cards)} cards match"
        )
