// frames.js — frame discovery helpers. Fragment of the in-page engine.
