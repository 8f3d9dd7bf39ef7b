"""Civitas: an online table for city-building board games."""
