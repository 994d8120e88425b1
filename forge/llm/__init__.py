"""Model providers behind one interface (`forge.llm.types.Provider`)."""
