"""The daily loop: sessions born, restarted and ended; the user's config; stalls; calling the
user; `a2a down`; the CLI's help."""
