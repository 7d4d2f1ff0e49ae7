"""Output: descriptions and, later, reports rendered as text, Markdown, JSON and HTML."""
