"""The privacy portal and the end user's data rights: a signed way in, the pages at /me/, export and erasure."""
