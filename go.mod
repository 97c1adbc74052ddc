module parlour

go 1.26
