"""`Outgoing`'s written-out constructor stays the dataclass it stands for."""

import inspect
from dataclasses import MISSING, FrozenInstanceError, fields, replace

import pytest

from bot.views.outgoing import Button, Outgoing


def test_the_constructor_takes_every_field_in_order_with_its_default():
    parameters = list(inspect.signature(Outgoing.__init__).parameters.values())[1:]
    assert [p.name for p in parameters] == [f.name for f in fields(Outgoing)]
    for parameter, declared in zip(parameters, fields(Outgoing), strict=True):
        expected = inspect.Parameter.empty if declared.default is MISSING else declared.default
        assert parameter.default == expected, declared.name


def test_a_message_holds_what_it_was_given_and_stays_frozen():
    button = Button("Ready", "/ready", "stamp")
    message = Outgoing(
        "private",
        "c1",
        "hi",
        user="u1",
        buttons=((button,),),
        slot="hand s",
        urgent=False,
        asked=True,
    )
    assert (message.kind, message.chat, message.text, message.user) == ("private", "c1", "hi", "u1")
    assert message.buttons == ((button,),) and message.slot == "hand s"
    assert (message.urgent, message.asked, message.public, message.filename) == (
        False,
        True,
        False,
        None,
    )
    assert replace(message, text="bye") == Outgoing(
        "private",
        "c1",
        "bye",
        user="u1",
        buttons=((button,),),
        slot="hand s",
        urgent=False,
        asked=True,
    )
    with pytest.raises(FrozenInstanceError):
        message.text = "changed"  # type: ignore[misc]
