"""Files: safe zip reading and atomic writing, savedGame obfuscation, sniffing what a file is.

The only package that opens files.
"""
