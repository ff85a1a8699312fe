from django.core.management.base import BaseCommand

from quizzes.authoring import demo_quiz_ensure


class Command(BaseCommand):
    help = "Demo only (`make run`): publish a graded quiz built from picked questions and a rule."

    def handle(self, *args, **options) -> None:
        quiz = demo_quiz_ensure()
        self.stdout.write(f"published demo graded quiz {quiz.slug}" if quiz else "demo quiz: kept")
