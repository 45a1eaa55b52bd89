"""The replay viewer: ``koikoi view RECORD`` (the record checked before Qt loads), a record
in steps with no Qt, and the window that shows them on the live table's widgets."""
