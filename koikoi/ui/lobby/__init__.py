"""対戦's lobby: the rooms heard of on the LAN and the player's own, joining one by the list
or by address, and the wait before the match."""
