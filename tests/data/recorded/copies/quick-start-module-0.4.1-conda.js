    "stable,conda,linux,cuda8,python2.7":
      "conda install pytorch torchvision cuda80 -c pytorch",

    "stable,conda,linux,cuda9.0,python2.7":
      "conda install pytorch torchvision -c pytorch",

    "stable,conda,linux,cuda9.2,python2.7":
      "conda install pytorch torchvision cuda92 -c pytorch",

    "stable,conda,linux,cudanone,python2.7":
      "conda install pytorch-cpu torchvision-cpu -c pytorch",

    "stable,conda,linux,cuda8,python3.5":
      "conda install pytorch torchvision cuda80 -c pytorch",

    "stable,conda,linux,cuda9.0,python3.5":
      "conda install pytorch torchvision -c pytorch",

    "stable,conda,linux,cuda9.2,python3.5":
      "conda install pytorch torchvision cuda92 -c pytorch",

    "stable,conda,linux,cudanone,python3.5":
      "conda install pytorch-cpu torchvision-cpu -c pytorch",

    "stable,conda,linux,cuda8,python3.6":
      "conda install pytorch torchvision cuda80 -c pytorch",

    "stable,conda,linux,cuda9.0,python3.6":
      "conda install pytorch torchvision -c pytorch",

    "stable,conda,linux,cuda9.2,python3.6":
      "conda install pytorch torchvision cuda92 -c pytorch",

    "stable,conda,linux,cudanone,python3.6":
      "conda install pytorch-cpu torchvision-cpu -c pytorch",

    "stable,conda,linux,cuda8,python3.7":
      "conda install pytorch torchvision cuda80 -c pytorch",

    "stable,conda,linux,cuda9.0,python3.7":
      "conda install pytorch torchvision -c pytorch",

    "stable,conda,linux,cuda9.2,python3.7":
      "conda install pytorch torchvision cuda92 -c pytorch",

    "stable,conda,linux,cudanone,python3.7":
      "conda install pytorch-cpu torchvision-cpu -c pytorch",

    "stable,conda,windows,cuda8,python3.5":
      "conda install pytorch cuda80 -c pytorch<br />pip3 install torchvision",

    "stable,conda,windows,cuda9.0,python3.5":
      "conda install pytorch -c pytorch<br />pip3 install torchvision",

    "stable,conda,windows,cuda9.2,python3.5":
      "conda install pytorch cuda92 -c pytorch<br />pip3 install torchvision",

    "stable,conda,windows,cudanone,python3.5":
      "conda install pytorch-cpu -c pytorch<br />pip3 install torchvision",

    "stable,conda,windows,cuda8,python3.6":
      "conda install pytorch cuda80 -c pytorch<br />pip3 install torchvision",

    "stable,conda,windows,cuda9.0,python3.6":
      "conda install pytorch -c pytorch<br />pip3 install torchvision",

    "stable,conda,windows,cuda9.2,python3.6":
      "conda install pytorch cuda92 -c pytorch<br />pip3 install torchvision",

    "stable,conda,windows,cudanone,python3.6":
      "conda install pytorch-cpu -c pytorch<br />pip3 install torchvision",

    "stable,conda,windows,cuda8,python3.7":
      "conda install pytorch cuda80 -c pytorch<br />pip3 install torchvision",

    "stable,conda,windows,cuda9.0,python3.7":
      "conda install pytorch -c pytorch<br />pip3 install torchvision",

    "stable,conda,windows,cuda9.2,python3.7":
      "conda install pytorch cuda92 -c pytorch<br />pip3 install torchvision",

    "stable,conda,windows,cudanone,python3.7":
      "conda install pytorch-cpu -c pytorch<br />pip3 install torchvision",
