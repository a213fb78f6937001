// Static discovery of tinker-cookbook recipes: what the stack's catalog scans with.
export { createRecipeScanner, type RecipeScanner, type RecipeScannerOptions } from "./create-recipe-scanner.ts";
