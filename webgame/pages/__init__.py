"""The pages: one module per page (home, room, TV screen) plus the parts a room page is built from."""
