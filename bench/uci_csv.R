# Writes UCI sets from R's mlbench package as CSV files (header, features numeric, label last).
args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args) > 0) args[1] else "."
suppressMessages(library(mlbench))
numeric_frame <- function(df, label) {
  features <- df[, setdiff(names(df), label), drop = FALSE]
  for (name in names(features)) features[[name]] <- as.numeric(as.character(features[[name]]))
  cbind(features, label = df[[label]])
}
write_set <- function(name, df, label) {
  write.csv(numeric_frame(df, label), file.path(out, paste0(name, ".csv")), row.names = FALSE, quote = FALSE)
}
data(Satellite); write_set("satellite", Satellite, "classes")
data(Sonar); write_set("sonar", Sonar, "Class")
data(Ionosphere); write_set("ionosphere", Ionosphere, "Class")
data(DNA); write_set("dna", DNA, "Class")
data(Shuttle); write_set("shuttle", Shuttle, "Class")
