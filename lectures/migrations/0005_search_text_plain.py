"""Recompute the stored search text with the new ``lectures.plaintext.plain_text``: snippets are
slices of it, and rows imported before it still hold Markdown (``**``, backticks, table pipes)."""

from django.db import migrations


def recompute(apps, schema_editor) -> None:
    from lectures.plaintext import plain_text

    Section = apps.get_model("lectures", "Section")
    for row in Section.objects.only("number", "title", "body_md", "search_headings").iterator():
        row.search_title = plain_text(f"{row.number} {row.title}")
        row.search_headings = plain_text(row.search_headings)
        row.search_body = plain_text(row.body_md)
        row.save(update_fields=["search_title", "search_headings", "search_body"])


class Migration(migrations.Migration):
    dependencies = [("lectures", "0004_ui_labels")]

    operations = [migrations.RunPython(recompute, migrations.RunPython.noop)]
