"""Customer accounts: sign-up, activation by email, deactivation and private profiles."""
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta

ACTIVATION_TTL = timedelta(days=2)


@dataclass
class Account:
    email: str
    active: bool = False
    private_profile: bool = True  # private by default: profiles are opt-in
    activation_token: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    activation_sent: datetime = field(default_factory=datetime.now)
    deactivated_at: datetime | None = None


def activation_link(account: Account, base_url: str) -> str:
    """The link in the activation email; it activates the account once."""
    return f"{base_url}/activate?token={account.activation_token}"


def activate_account(account: Account, token: str, now: datetime) -> bool:
    """Activate if the activation token matches and has not expired; reactivation is allowed."""
    if token != account.activation_token:
        return False
    if now - account.activation_sent > ACTIVATION_TTL:
        return False  # expired activation: the user must ask for a new activation email
    account.active, account.deactivated_at = True, None
    return True


def deactivate_account(account: Account, now: datetime) -> None:
    """Deactivate: keep the data (private) for 30 days so a reactivation can restore it."""
    account.active, account.deactivated_at = False, now


def reactivate_account(account: Account, now: datetime) -> bool:
    """Reactivate a deactivated account within 30 days of deactivation."""
    if account.deactivated_at is None or now - account.deactivated_at > timedelta(days=30):
        return False
    account.active, account.deactivated_at = True, None
    return True


def set_private(account: Account, private: bool) -> None:
    """Private profiles hide the order history from other users; activation keeps it private."""
    account.private_profile = private
