print("bullseye")
