import jsonschema

from gradinglab.runner import RESULT_SCHEMA
from gradinglab.tests.labkit import load_doc


def test_stored_runner_documents_match_the_current_schema() -> None:
    for name in ("accepted", "wrong_answer"):
        doc = load_doc(name)
        jsonschema.validate(doc, RESULT_SCHEMA)
        assert doc["problem"] == "vector-add"
    assert load_doc("accepted")["status"] == "accepted"
    assert load_doc("wrong_answer")["status"] == "wrong_answer"
