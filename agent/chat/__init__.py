"""The recruiter chat: a LangGraph graph that routes a message to one action over the stored
analyses, with its memory in a LangGraph checkpointer on the product's database."""
