"""A page's elements in its HTML, escaped the fast way (``webgame.framework.page_escape``): the same text as NiceGUI's
own
escaping, so a hostile name still cannot break out of the page's JSON."""

from __future__ import annotations

import json

import nicegui.client
from nicegui.testing import User

from tests.web.helpers import create_room
from webgame.framework import page_escape

HOSTILE = 'Олександр</script><script>alert(`$x` & "y")</script>'


def test_the_fast_escape_gives_niceguis_own_text() -> None:
    text = json.dumps({"1": {"text": HOSTILE, "props": {"label": "a && b <> `c` $d"}}}, ensure_ascii=False)
    expected = str.translate(text, nicegui.client.HTML_ESCAPE_TABLE)
    assert page_escape.FastEscape(text).translate(nicegui.client.HTML_ESCAPE_TABLE) == expected
    assert "<" not in expected and "`" not in expected and "$" not in expected
    other = str.maketrans({"a": "b"})
    assert page_escape.FastEscape("banana").translate(other) == "bbnbnb"  # any other table: plain translate


def test_install_takes_niceguis_table_and_its_json_still_reads() -> None:
    assert page_escape.install()
    assert nicegui.client.json is page_escape.ClientJson
    assert nicegui.client.json.loads(nicegui.client.json.dumps({"a": [1, "б"]})) == {"a": [1, "б"]}


async def test_a_hostile_name_is_text_in_the_room_pages_html(user: User) -> None:
    """The host's name is in the room page's elements: in the HTML it is escaped, nothing of it runs."""
    room = await create_room(user, name=HOSTILE[:20])  # the name field's length: "Олександр</script><s"
    page = (await user.http_client.get(f"/r/{room.code}")).text
    assert "Олександр&lt;/script&gt;&lt;s" in page
    assert "Олександр</script>" not in page
