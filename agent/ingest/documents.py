"""Text from the files recruiters actually get: PDF (pypdf) and Word .docx (python-docx).

Each reader returns the document's text with one line per paragraph, or raises an InputError in
one line: a corrupt file, an encrypted PDF, or a PDF with no text layer (a scan) says so.
"""

from __future__ import annotations

import io
import logging
import zipfile

from agent.errors import InputError

PDF_MAGIC = b"%PDF"
ZIP_MAGIC = b"PK\x03\x04"


def pdf_text(data: bytes, label: str) -> str:
    """Text of every page of a PDF; ``label`` names the file in errors."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # its warnings are for developers
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise InputError(f"{label} is an encrypted PDF; save it without a password first")
        pages = [page.extract_text() or "" for page in reader.pages]
    except (PdfReadError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{label} is not a readable PDF ({type(exc).__name__})") from None
    text = "\n".join(page.strip() for page in pages if page.strip())
    if not text:
        raise InputError(
            f"{label} is a PDF with no text layer (a scanned image?); run OCR or paste its text"
        )
    return text


def docx_text(data: bytes, label: str) -> str:
    """Paragraphs and table cells of a Word .docx document, in order."""
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    try:
        document = docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError):
        raise InputError(
            f"{label} is a zip or Office file but not a Word .docx document; "
            "save it as .docx, text or Markdown"
        ) from None
    lines = [p.text for p in document.paragraphs]
    for table in document.tables:
        for row in table.rows:
            lines.append(" | ".join(cell.text.strip() for cell in row.cells))
    text = "\n".join(line.rstrip() for line in lines if line.strip())
    if not text:
        raise InputError(f"{label} is a Word document with no text")
    return text
