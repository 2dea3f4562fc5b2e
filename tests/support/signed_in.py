"""A user's browser in the test app, for tests that walk pages without a real browser."""
from __future__ import annotations

from ckan.tests.helpers import call_action


class SignedIn:
    """A browser of one user: one cookie jar (the session), the user's API token on every request."""

    def __init__(self, app, user: dict) -> None:
        self.client = app.test_client()
        self.headers = {"Authorization": call_action("api_token_create", user=user["name"], name="web")["token"]}

    def get(self, url: str, **kwargs):
        return self.client.get(url, headers=self.headers, **kwargs)

    def post(self, url: str, **kwargs):
        return self.client.post(url, headers=self.headers, **kwargs)
