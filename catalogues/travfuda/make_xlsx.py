#!/usr/bin/env python3
"""Writes markers.xlsx from markers.csv: the same rows as a spreadsheet, as designers keep
them, so the built-in games read one deck from a workbook (sheet "markers"). Whole numbers
become number cells, the rest text. Run from this folder: python3 make_xlsx.py (needs
openpyxl). tests/designers.rs checks that both files build the same PDF."""
import csv

import openpyxl

book = openpyxl.Workbook()
sheet = book.active
sheet.title = "markers"
with open("markers.csv", newline="", encoding="utf-8") as f:
    for row in csv.reader(f):
        sheet.append([int(cell) if cell.isdigit() else cell for cell in row])
book.save("markers.xlsx")
