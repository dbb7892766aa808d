"""API errors: every refusal is a 4xx with ``{"error": "<one sentence>"}``."""

from __future__ import annotations


class ApiError(Exception):
    """A refusal with its HTTP status; nothing was changed."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def not_found(what: str) -> ApiError:
    return ApiError(404, f"there is no {what}")


def conflict(message: str) -> ApiError:
    return ApiError(409, message)


def unprocessable(message: str) -> ApiError:
    return ApiError(422, message)
