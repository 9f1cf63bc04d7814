"""All Hands on Deck (crew combinations): engine, components and observation encoder."""
